/**
 * `cardflow card-details <cardNo> --show --caller <who> --reason <why>`: a card's details for the
 * person at this terminal (client/card-details.ts, docs/card-details.md). Shown only with --show
 * and only when standard output is a terminal, never into a pipe, a file or a log; each reveal is
 * recorded and limited per card. `--reveals` lists who was shown the card's details, why and when.
 */
import { openCardDetails } from '../card-details';
import { type CliContext, type Command, ExitCodes, printResult, UsageError } from './context';

async function cardDetails(ctx: CliContext, cardNo: string | undefined): Promise<number> {
  if (!cardNo) throw new UsageError('card-details needs a <cardNo>');
  const { show, reveals } = ctx.values;
  if (show === reveals)
    throw new UsageError('card-details takes one of --show (the details) or --reveals (who saw them)');
  if (show && ctx.values.json) throw new UsageError('--show prints to a terminal only: no --json');
  if (show && !ctx.io.stdoutIsTerminal)
    throw new UsageError(
      'card-details --show prints only to a terminal, and standard output is not one: nothing was read or recorded',
    );
  const reader = openCardDetails(ctx.config);
  try {
    if (reveals) {
      const records = await reader.reveals(cardNo);
      printResult(ctx, records, () =>
        records.length
          ? records.map((r) => `${new Date(r.at).toISOString()}  ${r.caller}  ${r.reason}`).join('\n')
          : `no reveal of card ${cardNo} is recorded`,
      );
      return ExitCodes.done;
    }
    const details = await reader.reveal(cardNo, { caller: ctx.values.caller ?? '', reason: ctx.values.reason ?? '' });
    const lines = [
      `card ${details.cardNo}`,
      ...(details.cardNumber ? [`number  ${details.cardNumber}`] : []),
      ...(details.expireDate ? [`expiry  ${details.expireDate}`] : []),
      ...(details.cvv ? [`cvv     ${details.cvv}`] : []),
      ...(details.activateUrl ? [`activation link  ${details.activateUrl}`] : []),
    ];
    for (const line of lines) ctx.io.out(line);
    return ExitCodes.done;
  } finally {
    await reader.close();
  }
}

export const CARD_DETAILS_COMMAND: Command = {
  name: 'card-details',
  usage: ['card-details <cardNo> --show --caller <who> --reason <why>', 'card-details <cardNo> --reveals [--json]'],
  summary: "show a card's number, expiry and CVV to the person at this terminal (recorded, limited per card)",
  details: [
    '--show: printed only when standard output is a terminal; --caller and --reason are recorded with the reveal.',
    'At most 3 reveals of a card an hour (CardRevealRefused names when the next is allowed). docs/card-details.md.',
    '--reveals: who was shown the details, why and when (never a value).',
  ],
  options: ['show', 'reveals', 'caller', 'reason', 'json'],
  run: (ctx, [cardNo]) => cardDetails(ctx, cardNo),
};
