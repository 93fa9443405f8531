import { describe, expect, it } from "vitest";
import { pickClientAddress } from "./clientAddress.js";

describe("pickClientAddress", () => {
  it("takes the first X-Forwarded-For hop only behind a trusted proxy, else the socket's peer", () => {
    expect(pickClientAddress("203.0.113.7, 10.0.0.1", "10.0.0.2", true)).toBe("203.0.113.7");
    expect(pickClientAddress("203.0.113.7", "10.0.0.2", false)).toBe("10.0.0.2");
    expect(pickClientAddress(" ", "10.0.0.2", true)).toBe("10.0.0.2");
    expect(pickClientAddress(undefined, undefined, true)).toBe("unknown");
  });
});
