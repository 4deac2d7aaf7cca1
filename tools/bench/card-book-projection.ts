/** Bench (k): the per-card figures of docs/card-life.md's 1,000,000-card projection. */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { DEFAULT_RETENTION_MS, DELIVERY_LOG } from '../../webhooks/store';
import { DEFAULT_MAX_HISTORY_EVENTS } from '../../workflows/card-entity';
import { say } from './harness';
import type { Quiet } from './card-book-authorizations';
import { EVENTS_PER_LIFE_AUTHORIZATION, type Shape } from './card-book-kit';

/** The delivery log's entries so far and their bytes (the file store's JSON lines). */
export function deliveryLogOf(dataDir: string): { entries: number; bytes: number } {
  const file = path.join(dataDir, DELIVERY_LOG);
  if (!existsSync(file)) return { entries: 0, bytes: 0 };
  const text = readFileSync(file, 'utf8');
  return { entries: text.split('\n').filter(Boolean).length, bytes: Buffer.byteLength(text) };
}

/**
 * The per-card figures and what they make for 1,000,000 cards (docs/card-life.md's method): an
 * authorization in a card's life is two events (its hold and its settlement), each costing what one
 * sent alone cost here; a run continues as new past DEFAULT_MAX_HISTORY_EVENTS.
 */
export function project(issued: { shape: Shape }, quiet: Quiet, deliveryLog: { entries: number; bytes: number }): void {
  const cards = 1_000_000;
  const { shape } = issued;
  const maxEvents = DEFAULT_MAX_HISTORY_EVENTS;
  const entryBytes = deliveryLog.bytes / Math.max(1, deliveryLog.entries);
  const retentionDays = DEFAULT_RETENTION_MS / 86_400_000;
  const gib = (bytes: number) => `${(bytes / 2 ** 30).toFixed(2)} GiB`;
  say(`  per card, for the 1,000,000-card projection (docs/card-life.md):`);
  say(
    `    a parked card: ${shape.bytes.toFixed(0)} history bytes, ${shape.events.toFixed(0)} events, ${shape.timers.toFixed(1)} timers; ` +
      `1,000,000 parked: ${gib(shape.bytes * cards)} of history; an open run holds at most ${maxEvents} events, ` +
      `~${((maxEvents * quiet.bytesPerAuthorization) / quiet.eventsPerAuthorization / 1024).toFixed(0)} KiB at this size of event`,
  );
  say(
    `    delivery log: ${entryBytes.toFixed(0)} bytes of JSON per webhook (${deliveryLog.entries} entries in the file store; the PostgreSQL ` +
      `store's jsonb column holds the same entry), kept ${retentionDays} days`,
  );
  for (const a of [0, 10, 100]) {
    const events = a * EVENTS_PER_LIFE_AUTHORIZATION;
    // Each continue-as-new (history past maxEvents) is one start more.
    const perMonth = events * quiet.actionsPerAuthorization + (events * quiet.eventsPerAuthorization) / maxEvents;
    const bytes = events * quiet.bytesPerAuthorization;
    const logRows = (events * retentionDays) / 30;
    say(
      `    ${a} authorizations a month (${events} events): ${perMonth.toFixed(1)} actions per card per month, ` +
        `${((perMonth * cards) / 1e6).toFixed(1)} M for 1,000,000 cards; history +${(bytes / 1024).toFixed(1)} KiB per card per month; ` +
        `delivery log ${logRows.toFixed(1)} rows per card (${gib(logRows * entryBytes * cards)} of entries for 1,000,000 cards)`,
    );
  }
}
