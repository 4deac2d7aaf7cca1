-- Card-detail reveals (platform/storage/postgres-reveal-log.ts): who saw a card's details, why and
-- when, never the values; read per card over the limit's window. An expand step: no build before
-- it reads or writes the table.
-- Up Migration
CREATE TABLE IF NOT EXISTS cardflow_card_reveals (
  id bigserial PRIMARY KEY,
  card_no text NOT NULL,
  caller text NOT NULL,
  reason text NOT NULL,
  revealed_at timestamptz NOT NULL
);
CREATE INDEX IF NOT EXISTS cardflow_card_reveals_card ON cardflow_card_reveals (card_no, revealed_at);
