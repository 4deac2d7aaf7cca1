/**
 * An onboarding's holder checked against the provider's reference data before anything starts:
 * the area code one of the mobile area codes, the town a city code of the holder's country, a B2C
 * holder's occupation an occupation code; the provider would otherwise refuse it days later
 * (40002). A list that cannot be read at all (cold cache, provider unreachable) refuses the start
 * with {@link ReferenceDataUnavailableError}, since input let through unchecked would turn a read
 * outage into bad submissions; `whenReferenceUnavailable: 'start-unchecked'` starts anyway, saying
 * so and warning. A cached list is served however old.
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
