/**
 * An onboarding's holder checked against the provider's reference data before anything starts
 * (client/reference-data.ts reads the lists): the mobile area code must be one of the mobile area
 * codes, the town a city code of the holder's country, a B2C holder's occupation an occupation
 * code. Each refusal names the field, the rule and the list the allowed values come from; the
 * provider would otherwise refuse the holder days later, at submission (40002).
 *
 * When a list cannot be read at all (not cached yet, and the provider unreachable or not configured
 * in this process), the start is refused by default with {@link ReferenceDataUnavailableError}, a
 * registered type a backend can branch on and retry: letting the input through unchecked would
 * turn a read outage into a bad submission. A backend that would rather start anyway says so
 * (`whenReferenceUnavailable: 'start-unchecked'`); the start then says it was not checked, and a
 * warning goes to stderr. Only a cold cache can fail this way: a cached list is served however old.
 */
import type { CardholderData } from '../domain';
import type { ReferenceListName } from '../provider/reference-lists';
import { type ReferenceData, ReferenceDataUnavailableError } from './reference-data';
import { InvalidInputError } from './validation';

/** What a start does when a list it needs cannot be read. */
export type WhenReferenceUnavailable = 'refuse' | 'start-unchecked';

/** What is checked: an onboarding input, or a correction (no customerRef in it). */
export interface HolderToCheck {
  customerRef?: string;
  holder?: CardholderData | undefined;
}

/** "+1" and "1" name the same mobile area code. */
const bare = (code: string) => code.replace(/^\+/, '');

/**
 * The `field: rule` lines of the holder's values that are not in the reference lists; none for an
 * input without a holder. Throws {@link ReferenceDataUnavailableError} when a list it needs cannot
 * be read.
 */
export async function referenceProblems(input: HolderToCheck, data: Pick<ReferenceData, 'list'>): Promise<string[]> {
  const holder = input.holder;
  if (!holder) return [];
  const problems: string[] = [];
  const codes = (await data.list('mobile-area-codes')).records.map((row) => bare(row.code));
  if (!codes.includes(bare(holder.areaCode)))
    problems.push(`holder.areaCode: is not a mobile area code (reference data: mobile-area-codes)`);
  if (holder.shape !== 'IDV') {
    const cities = (await data.list('cities')).records;
    if (!cities.some((city) => city.code === holder.town && city.country === holder.country))
      problems.push(`holder.town: is not a city code of region ${holder.country} (reference data: cities)`);
  }
  if (holder.shape === 'B2C') {
    const occupations = (await data.list('occupations')).records;
    if (!occupations.some((row) => row.occupationCode === holder.occupation))
      problems.push(`holder.occupation: is not an occupation code (reference data: occupations)`);
  }
  return problems;
}

/** How a start came through the check: `unchecked` names the list that was not read, and why. */
export interface ReferenceCheck {
  unchecked?: { list: ReferenceListName; reason: string };
}

/**
 * Refuses `input` with {@link InvalidInputError} when a holder value is not in its list; a list
 * that cannot be read refuses it with {@link ReferenceDataUnavailableError}, unless `when` is
 * `start-unchecked`. `open` is called only for an input with a holder; what it opens is closed.
 */
export async function checkReferenceData(
  input: HolderToCheck,
  open: () => ReferenceData,
  when: WhenReferenceUnavailable = 'refuse',
): Promise<ReferenceCheck> {
  if (!input.holder) return {};
  const data = open();
  try {
    const problems = await referenceProblems(input, data);
    if (problems.length)
      throw new InvalidInputError(
        input.customerRef === undefined ? 'cardholder correction' : 'onboarding input',
        problems,
      );
    return {};
  } catch (error) {
    if (!(error instanceof ReferenceDataUnavailableError) || when !== 'start-unchecked') throw error;
    console.warn(
      `cardflow: ${input.customerRef ?? 'correction'}: going on without the reference check: ${error.message}`,
    );
    return { unchecked: { list: error.list, reason: error.reason } };
  } finally {
    await data.close();
  }
}
