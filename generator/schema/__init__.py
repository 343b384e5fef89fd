"""The schema core: everything the generator knows about JSON Schema as a language.

One keyword table per dialect (`vocabulary`), one dialect detector (`dialect`), one JSON
pointer implementation (`pointer`), URI joining (`uri`), one walk over every subschema
(`walk`), one reference resolver (`resolver`), and what is proven or compiled on top of
them (`proofs`, `engine`, `values`). The rest of the generator asks these modules; none
of it names an applicator keyword in a table of its own (tests/test_schema_core.py).
"""
