-- The notifier's durable place in the status_events outbox. Sequence ids are taken before commit, so an
-- event can become visible after a later id: events above last_event_id already published are listed in
-- published_above, and a missing id ("gap") is waited for until every transaction that was running when it
-- was first seen has ended (gaps: [{id, xmax, seenAt}], xmax as the snapshot's text xid8).
CREATE TABLE crossfill.notify_cursors (
  name            text PRIMARY KEY,
  last_event_id   bigint NOT NULL,
  published_above bigint[] NOT NULL DEFAULT '{}',
  gaps            jsonb NOT NULL DEFAULT '[]',
  updated_at      timestamptz NOT NULL DEFAULT now()
);
