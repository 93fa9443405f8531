import { z } from "zod";
import { describe, expect, it } from "vitest";
import { invalidInput } from "./invalidInput.js";

describe("invalidInput", () => {
  const schema = z.object({ amount: z.string(), nested: z.object({ id: z.number() }).optional() });
  const refusal = (input: unknown, root?: string) => {
    const parsed = schema.safeParse(input, { reportInput: true });
    if (parsed.success) throw new Error("parsed");
    return invalidInput(parsed.error, root);
  };

  it("says an absent field is required, and a wrong one what zod found", () => {
    expect(refusal({}).message).toBe("amount: required");
    expect(refusal({ amount: 5 }).message).toBe("amount: Invalid input: expected string, received number");
    expect(refusal({ amount: "1", nested: {} }).message).toBe("nested.id: required");
    expect(refusal({ amount: null }).message).toBe("amount: Invalid input: expected string, received null");
  });

  it("names the root when the whole input is wrong, with the INVALID_INPUT code", () => {
    const error = refusal("text", "query");
    expect(error.message).toMatch(/^query: /);
    expect(error.errorCode).toBe("INVALID_INPUT");
  });
});
