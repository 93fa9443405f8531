import type { Chain } from "./types";

/** A labelled choice of one chain, or any ("" as its value). */
export function ChainSelect({
  label,
  chains,
  value,
  onChange,
}: {
  label: string;
  chains: Chain[];
  value: string;
  onChange: (value: string) => void;
}) {
  return (
    <label>
      {label}
      <select value={value} onChange={(event) => onChange((event.target as HTMLSelectElement).value)}>
        <option value="">Any</option>
        {chains.map((chain) => (
          <option key={chain.id} value={chain.id}>
            {chain.displayName}
          </option>
        ))}
      </select>
    </label>
  );
}
