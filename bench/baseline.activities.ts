/** A no-op activity: what a provider call costs Temporal, without the provider. */
export async function noop(_input: { step: number }): Promise<void> {}
