import { describe, expect, it } from "vitest";
import { validateWebhookUrl } from "./validateWebhookUrl.js";

const production = (addresses: Record<string, string[]>) => ({
  allowPrivate: false,
  resolve: async (host: string) => {
    const found = addresses[host];
    if (!found) throw new Error("ENOTFOUND");
    return found;
  },
});

describe("validateWebhookUrl", () => {
  const dns = {
    "hooks.example.com": ["93.184.216.34"],
    "rebind.example.com": ["93.184.216.34", "127.0.0.1"],
    "internal.example.com": ["10.0.0.5"],
    "v6.example.com": ["fd00::1"],
  };

  it("accepts https to a public host", async () => {
    expect((await validateWebhookUrl("https://hooks.example.com/crossfill", production(dns))).href).toBe(
      "https://hooks.example.com/crossfill",
    );
  });

  it.each([
    ["http://hooks.example.com/", "must be https"],
    ["https://internal.example.com/", "non-public address (10.0.0.5)"],
    ["https://rebind.example.com/", "non-public address (127.0.0.1)"],
    ["https://v6.example.com/", "non-public address (fd00::1)"],
    ["https://127.0.0.1/", "non-public"],
    ["https://[::1]/", "non-public"],
    ["https://169.254.169.254/latest/meta-data", "non-public"],
    ["https://100.64.1.1/", "non-public"],
    ["https://[::ffff:192.168.0.1]/", "non-public"],
    ["https://nowhere.example.com/", "does not resolve"],
    ["https://user:pass@hooks.example.com/", "credentials"],
    ["ftp://hooks.example.com/", "must be https"],
    ["not a url", "not a valid absolute URL"],
  ])("refuses %s in production", async (url, message) => {
    await expect(validateWebhookUrl(url, production(dns))).rejects.toMatchObject({
      errorCode: "INVALID_INPUT",
      status: 400,
      message: expect.stringContaining(message),
    });
  });

  it("allows local http receivers on the devnet, but still only http(s)", async () => {
    expect((await validateWebhookUrl("http://127.0.0.1:9999/hook", { allowPrivate: true })).port).toBe("9999");
    await expect(validateWebhookUrl("file:///etc/passwd", { allowPrivate: true })).rejects.toMatchObject({
      errorCode: "INVALID_INPUT",
    });
  });
});
