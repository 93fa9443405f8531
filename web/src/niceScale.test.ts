import { describe, expect, it } from "vitest";
import { niceScale } from "./niceScale";

describe("niceScale", () => {
  it("rounds the top up to 1, 2 or 5 times a power of ten, with evenly spaced ticks", () => {
    expect(niceScale(7)).toEqual({ top: 8, ticks: [0, 2, 4, 6, 8] });
    expect(niceScale(1)).toEqual({ top: 1, ticks: [0, 0.5, 1] });
    expect(niceScale(930)).toEqual({ top: 1000, ticks: [0, 500, 1000] });
    expect(niceScale(0.3)).toEqual({ top: 0.3, ticks: [0, 0.1, 0.2, 0.3] });
  });

  it("steps by whole numbers when counting", () => {
    expect(niceScale(2, { integer: true })).toEqual({ top: 2, ticks: [0, 1, 2] });
    expect(niceScale(2)).toEqual({ top: 2, ticks: [0, 0.5, 1, 1.5, 2] });
  });

  it("gives an axis to nothing at all", () => {
    expect(niceScale(0)).toEqual({ top: 1, ticks: [0, 1] });
  });
});
