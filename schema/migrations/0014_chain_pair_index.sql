-- Narrow index on both chain ids: `chainId` (origin OR destination) counts scan it index-only instead of the
-- wide table, and it is the cheapest index for an unfiltered count(*).
CREATE INDEX requests_chain_pair_idx ON crossfill.requests (origin_chain_id, destination_chain_id);
