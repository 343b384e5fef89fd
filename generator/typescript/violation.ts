// Copied by mcp-contracts from its generator/typescript/violation.ts. Do not edit.
//
// What the generated code throws for a value its contract's schema refuses: one class for
// every contract of the package, so that `instanceof ContractViolation` catches them all.
import type { Violation } from "./judge.js";

/** A value the contract's schema refuses, with every way it breaks it. */
export class ContractViolation extends Error {
  override name = "ContractViolation";
  readonly violations: readonly Violation[];

  constructor(what: string, violations: readonly Violation[]) {
    super(`${what} is not valid: ` + violations.map((v) => `${v.pointer || "/"}: ${v.message}`).join("; "));
    this.violations = violations;
  }
}
