/**
 * The failure converter of every cardflow client and worker, loaded by path
 * (`DataConverter.failureConverterPath`) because the worker also bundles it into workflow code:
 * this file may import only `@temporalio/common`.
 *
 * `encodeCommonAttributes` moves a failure's message and stack trace into an encoded payload,
 * which the payload codec then encrypts: rejection reasons can quote personal data.
 * The clear-text message left in the history is "Encoded failure".
 */
import { DefaultFailureConverter } from '@temporalio/common';

export const failureConverter = new DefaultFailureConverter({ encodeCommonAttributes: true });
