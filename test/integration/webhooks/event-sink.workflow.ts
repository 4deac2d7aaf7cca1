/** A minimal owner for receiver tests: collects provider events until told how many to expect. */
import { condition, defineQuery, setHandler } from '@temporalio/workflow';
import { type ProviderEvent, providerEventSignal } from '../../../domain/provider-event';

export const receivedEventsQuery = defineQuery<ProviderEvent[]>('receivedEvents');

export async function eventSink(input: { expect: number }): Promise<ProviderEvent[]> {
  const events: ProviderEvent[] = [];
  setHandler(providerEventSignal, (event) => void events.push(event));
  setHandler(receivedEventsQuery, () => events);
  await condition(() => events.length >= input.expect);
  return events;
}
