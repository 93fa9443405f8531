import { describe, expect, it } from "vitest";
import { readStoredFeeSponsorship, toStoredFeeSponsorship } from "./storedFeeSponsorship.js";

const quoted = {
  selectedComponents: ["relay"],
  capHit: false,
  components: { relay: { selected: true, sponsored: { amount: "5" } } },
  subsidizationBps: 10_000,
};
const sponsorPayment = { amount: "5", address: "0x0000000000000000000000000000000000000000", chainId: 31338 };

describe("stored fee sponsorship", () => {
  it("keeps the quoted phase and the payment, and gives back both phases as the quote answered them", () => {
    const answered = { quoted, actual: { ...quoted, sponsorPayment } };
    const stored = toStoredFeeSponsorship(answered);
    expect(stored).toEqual({ quoted, sponsorPayment });
    expect(readStoredFeeSponsorship(JSON.parse(JSON.stringify(stored)))).toEqual(answered);
  });

  it("reads rows stored with both phases whole, and rows with none", () => {
    const older = { quoted, actual: { ...quoted, capHit: true, sponsorPayment } };
    expect(readStoredFeeSponsorship(older)).toEqual(older);
    expect(readStoredFeeSponsorship(undefined)).toBeUndefined();
    expect(readStoredFeeSponsorship(null)).toBeUndefined();
  });
});
