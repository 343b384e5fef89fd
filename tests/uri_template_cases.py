"""What the tests of the URI template module share with those of its TypeScript port
(tests/test_uri_template.py, tests/test_typescript_surface.py): RFC 6570's examples, the cases
written by hand, the hostile templates, and strategies over the Level 1 to 3 grammar."""

from __future__ import annotations

import string

from hypothesis import strategies as st
from mcp_contracts_generator.runtime import UriTemplate

# RFC 6570 §3.2: the variables of the examples that Levels 1 to 3 take (strings; `undef` is left out).
RFC_VALUES = {
    "dub": "me/too",
    "hello": "Hello World!",
    "half": "50%",
    "var": "value",
    "who": "fred",
    "base": "http://example.com/home/",
    "path": "/foo/bar",
    "v": "6",
    "x": "1024",
    "y": "768",
    "empty": "",
}

RFC_EXAMPLES = [
    # §3.2.2 Simple String Expansion
    ("{var}", "value"),
    ("{hello}", "Hello%20World%21"),
    ("{half}", "50%25"),
    ("O{empty}X", "OX"),
    ("O{undef}X", "OX"),
    ("{x,y}", "1024,768"),
    ("{x,hello,y}", "1024,Hello%20World%21,768"),
    ("?{x,empty}", "?1024,"),
    ("?{x,undef}", "?1024"),
    ("?{undef,y}", "?768"),
    # §3.2.3 Reserved Expansion
    ("{+var}", "value"),
    ("{+hello}", "Hello%20World!"),
    ("{+half}", "50%25"),
    ("{base}index", "http%3A%2F%2Fexample.com%2Fhome%2Findex"),
    ("{+base}index", "http://example.com/home/index"),
    ("O{+empty}X", "OX"),
    ("O{+undef}X", "OX"),
    ("{+path}/here", "/foo/bar/here"),
    ("here?ref={+path}", "here?ref=/foo/bar"),
    ("{+x,hello,y}", "1024,Hello%20World!,768"),
    ("{+path,x}/here", "/foo/bar,1024/here"),
    # §3.2.4 Fragment Expansion
    ("{#var}", "#value"),
    ("{#hello}", "#Hello%20World!"),
    ("{#half}", "#50%25"),
    ("foo{#empty}", "foo#"),
    ("foo{#undef}", "foo"),
    ("{#x,hello,y}", "#1024,Hello%20World!,768"),
    ("{#path,x}/here", "#/foo/bar,1024/here"),
    # §3.2.5 Label Expansion with Dot-Prefix
    ("{.who}", ".fred"),
    ("{.half,who}", ".50%25.fred"),
    ("X{.var}", "X.value"),
    ("X{.empty}", "X."),
    ("X{.undef}", "X"),
    # §3.2.6 Path Segment Expansion
    ("{/who}", "/fred"),
    ("{/half,who}", "/50%25/fred"),
    ("{/who,dub}", "/fred/me%2Ftoo"),
    ("{/var}", "/value"),
    ("{/var,empty}", "/value/"),
    ("{/var,undef}", "/value"),
    ("{/var,x}/here", "/value/1024/here"),
    # §3.2.7 Path-Style Parameter Expansion
    ("{;who}", ";who=fred"),
    ("{;half}", ";half=50%25"),
    ("{;empty}", ";empty"),
    ("{;v,empty,who}", ";v=6;empty;who=fred"),
    ("{;v,bar,who}", ";v=6;who=fred"),
    ("{;x,y}", ";x=1024;y=768"),
    ("{;x,y,empty}", ";x=1024;y=768;empty"),
    ("{;x,y,undef}", ";x=1024;y=768"),
    # §3.2.8 Form-Style Query Expansion
    ("{?who}", "?who=fred"),
    ("{?half}", "?half=50%25"),
    ("{?x,y}", "?x=1024&y=768"),
    ("{?x,y,empty}", "?x=1024&y=768&empty="),
    ("{?x,y,undef}", "?x=1024&y=768"),
    # §3.2.9 Form-Style Query Continuation
    ("{&who}", "&who=fred"),
    ("{&half}", "&half=50%25"),
    ("?fixed=yes{&x}", "?fixed=yes&x=1024"),
    ("{&x,y,empty}", "&x=1024&y=768&empty="),
]

# RFC 6570 examples whose templates `parse` refuses, since a match could not undo them: a
# variable named twice, two variables with no literal between them. They still expand as the RFC says.
RFC_UNMATCHABLE = [
    ("{.who,who}", ".fred.fred", "named twice"),
    ("{/who,who}", "/fred/fred", "named twice"),
    ("up{+path}{var}/here", "up/foo/barvalue/here", "cannot be matched back"),
]

# Templates `parse` refuses: the column and the reason it names.
REFUSALS: list[tuple[str, int, str]] = [
    ("test://{id", 8, "no '}' closes"),
    ("test://{a{b}", 8, "no '}' closes"),
    ("test://a}", 9, "closes no expression"),
    ("test://{}", 8, "empty expression"),
    ("{+}", 3, "name is missing"),
    ("{a,}", 4, "name is missing"),
    ("{a-b}", 3, "'-' cannot be in a variable name"),
    ("{a b}", 3, "' ' cannot be in a variable name"),
    ("{a%2}", 3, "'%' is not followed by two hex digits"),
    ("{.a..b}", 5, "'.' may only stand between"),
    ("{a.}", 3, "cannot end with '.'"),
    ("{\u00e9}", 2, "cannot be in a variable name"),
    ("x{=a}", 3, "reserved by RFC 6570 for future use"),
    ("{,a}", 2, "reserved by RFC 6570 for future use"),
    ("{!a}", 2, "reserved by RFC 6570 for future use"),
    ("{@a}", 2, "reserved by RFC 6570 for future use"),
    ("{|a}", 2, "reserved by RFC 6570 for future use"),
    ("{x}/{y}/{x}", 10, "'x' is named twice"),
    ("{?a,b}{&a}", 9, "'a' is named twice"),
    ("{var:3}", 5, "prefix modifier ':N' (RFC 6570 Level 4) is not taken"),
    ("{/list*}", 7, "explode modifier '*' (RFC 6570 Level 4) is not taken"),
    ("{a}{b}", 4, "cannot be matched back"),
    ("{a}{+b}", 4, "cannot be matched back"),
    ("{;a}{b}", 5, "cannot be matched back"),
    ("a b", 2, "' ' cannot be in a URI template's literal text"),
    ('a"', 2, "cannot be in a URI template's literal text"),
    ("a'", 2, "cannot be in a URI template's literal text"),
    ("a<>", 2, "cannot be in a URI template's literal text"),
    ("a\\", 2, "cannot be in a URI template's literal text"),
    ("a^", 2, "cannot be in a URI template's literal text"),
    ("a`", 2, "cannot be in a URI template's literal text"),
    ("a|", 2, "cannot be in a URI template's literal text"),
    ("a\x7f", 2, "cannot be in a URI template's literal text"),
    ("a\n", 2, "cannot be in a URI template's literal text"),
    ("a\x85", 2, "cannot be in a URI template's literal text"),
    ("a%", 2, "'%' is not followed by two hex digits"),
    ("a%4g", 2, "'%' is not followed by two hex digits"),
]

# Templates `parse` takes.
TAKEN = ["{a}{.b}", "{a}{/b}", "{a}{;b}", "{a}{?b}", "{a}{&b}", "{a}{#b}", "{+a,b}", "{%41b.c_1}", "a%2Fb{x}\U000e1000"]

# A template, a URI and the values `match` finds (None: no match).
MATCHES: list[tuple[str, str, dict[str, str] | None]] = [
    # Members of the final query part in any order, each optional; one it does not name is no match.
    ("logs://{service}{?since,level}", "logs://api", {"service": "api"}),
    ("logs://{service}{?since,level}", "logs://api?level=error", {"service": "api", "level": "error"}),
    (
        "logs://{service}{?since,level}",
        "logs://api?level=e&since=5m",
        {"service": "api", "since": "5m", "level": "e"},
    ),
    ("logs://{service}{?since,level}", "logs://api?level=e&utm=x", None),
    ("logs://{service}{?since,level}", "logs://api?level=e&level=f", None),
    ("logs://{service}{?since,level}", "logs://api&level=e", None),
    ("{?a}{&b}", "&b=2", {"b": "2"}),
    ("{?a}{&b}", "?b=2&a=1", {"a": "1", "b": "2"}),
    ("{?a}{&b}", "&b=2&a=1", None),
    ("?fixed=yes{&x}", "?fixed=yes&x=1", {"x": "1"}),
    ("?fixed=yes{&x}", "?fixed=yes", {}),
    # A `{?...}` that does not end the template is read in order, each member required.
    ("{?a}{#f}", "?a=1#x", {"a": "1", "f": "x"}),
    ("{?a}{#f}", "#x", None),
    # Values: read where and as the operator writes them.
    ("test://template/{id}/data", "test://template/a%2Fb~%C3%A9/data", {"id": "a/b~\u00e9"}),
    ("test://template/{id}/data", "test://template/a%2fb/data", None),
    ("test://template/{id}/data", "test://template/%7E/data", None),
    ("test://template/{id}/data", "test://template/a/b/data", None),
    ("test://template/{id}/data", "test://template/a:b/data", None),
    ("test://template/{id}/data", "test://template/%C3/data", None),
    ("test://template/{id}/data", "test://template/%ED%A0%80/data", None),
    ("file:///{+path}", "file:///a/b%20c?d#e", {"path": "a/b c?d#e"}),
    ("file:///{+path}", "file:///a%2Fb%c3%a9%C3%A9", {"path": "a%2Fb%c3%a9\u00e9"}),
    ("file:///{+path}", "file:///%C3-%25-%2541", {"path": "%C3-%-%2541"}),
    ("file:///{+path}", "file:///a b", None),
    ("file:///{+path}", "file:///a%", None),
    # The longest value first, as a regular expression's greedy groups.
    ("{a}-{b}", "x-y-z", {"a": "x-y", "b": "z"}),
    ("{+path}{.ext}", "a.b/c.tar.gz", {"path": "a.b/c.tar", "ext": "gz"}),
    ("file{.ext}", "file.tar.gz", {"ext": "tar.gz"}),
    ("{+path}{?q}", "x?q=1", {"path": "x", "q": "1"}),
    ("{+path}{?q}", "x?y", {"path": "x?y"}),
    ("{;a,b}", ";a;b=2", {"a": "", "b": "2"}),
    ("{;a}", ";a=", None),
    ("{;a}=x", ";a=x", {"a": ""}),
    ("{;u}{.t}%20", ";u..%20", {"u": "", "t": "."}),
    ("{+u}{?t}", "?", {"u": "?"}),
    ("", "", {}),
    ("", "x", None),
]

HOSTILE_TEMPLATES = [
    "{a}a{b}a{c}a{d}b",
    "{a}a{b}a{c}a{d}",
    "{+a}a{b}a{+c}a{#d}",
    "{a}{;b,c,d}",
    "x{.a,b,c}{/d}",
    "{+a}{?b,c,d}{&e,f}",
    "{a}%61{b}%61{c}",
]


# Strategies over the Level 1 to 3 grammar.

OPERATORS = ("", "+", "#", ".", "/", ";", "?", "&")
NAMES = ("a", "b", "id", "x1", "Zed", "v_2", "x.y", "q", "r", "s", "t", "u")
# RFC 6570 §2.1's ASCII literals.
LITERAL_ASCII = "".join(sorted(set(string.punctuation + string.ascii_letters + string.digits) - set("\"%'<>\\^`{|}")))
ASCII_LITERALS = st.one_of(st.text(LITERAL_ASCII, min_size=1, max_size=4), st.just("%20"))
LITERALS = st.one_of(ASCII_LITERALS, st.just("\u00e9/"))
# Values' text: any UTF-8, percent-encodings in either case and reserved characters often.
VALUE_TEXT = st.lists(
    st.one_of(
        st.characters(codec="utf-8"), st.sampled_from(["%2F", "%2f", "%C3%A9", "%C3", "%25", "%", "/", "?", "&"])
    ),
    max_size=6,
).map("".join)
URI_EDITS = "%2Fa0-.,;=?&#/~"


@st.composite
def templates(draw: st.DrawFn, literals: st.SearchStrategy[str] = LITERALS, sdk_shaped: bool = False) -> str:
    """A template of one to five parts. `sdk_shaped`: within what the SDK takes (at most one `+`
    or `#` variable, one `{?...}`); else any the grammar holds and `parse` takes."""
    names = list(draw(st.permutations(NAMES)))
    text: list[str] = []
    expression_last = False
    greedy = question = False
    for _ in range(draw(st.integers(1, 5))):
        if not names or draw(st.booleans()):
            text.append(draw(literals))
            expression_last = False
            continue
        operators = [
            op for op in OPERATORS if not (sdk_shaped and ((greedy and op in "+#") or (question and op == "?")))
        ]
        operator = draw(st.sampled_from(operators))
        if expression_last and operator in ("", "+"):
            text.append(draw(literals))
        count = 1 if sdk_shaped and operator in "+#" else draw(st.integers(1, min(3, len(names))))
        text.append("{" + operator + ",".join(names.pop() for _ in range(count)) + "}")
        greedy |= operator in ("+", "#")
        question |= operator == "?"
        expression_last = True
    return "".join(text)


def values_for(
    template: UriTemplate, text: st.SearchStrategy[str], *, all_defined: bool
) -> st.SearchStrategy[dict[str, str]]:
    """Values for the template's variables; those of the final query part optional, all of them
    optional unless `all_defined`."""
    query = _query_names(template)
    required = {name: text for name in template.variables if all_defined and name not in query}
    optional = {name: text for name in template.variables if name not in required}
    return st.fixed_dictionaries(required, optional=optional)


def _query_names(template: UriTemplate) -> frozenset[str]:
    query = template._query
    return frozenset() if query is None else query.names
