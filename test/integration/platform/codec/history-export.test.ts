/**
 * Proof that payloads never sit in clear in Temporal: a full onboarding (cardholder review, card
 * creation with its initial deposit) runs with the shared data converter; its exported histories,
 * and those of its child workflows, hold none of the personal or card values in clear, and decoding
 * through the codec gives them back; the card's number and CVV are in no history, not even decoded.
 * The B2C holder (ID number), the PIN and the activation code: b2c-activation-export.test.ts.
 */
import { decryptSensitive } from '../../../../provider/sensitive';
import { createDataConverter } from '../../../../platform/codec/data-converter';
import { parseKeyList } from '../../../../platform/codec/keys';
import { testCodecKeys } from '../../support/temporal-env';
import { AesGcmPayloadCodec } from '../../../../platform/codec/payload-codec';
import type { OnboardingResult } from '../../../../domain/customer-onboarding';
import { onboardingStartAttributes } from '../../../../domain/start-attributes';
import { onboardingWorkflowId } from '../../../../domain/workflow-ids';
import { WorkflowTypes } from '../../../../domain/workflows';
import { CARD_TYPES, FAST_WAIT, workflowBundle } from '../../support/harness';
import { distinctiveB2bHolder, openEncryptedProof, personalValues } from './encrypted-world';
import { decodedHistoryText, exportHistoryBytes, holdsCvv, workflowsOnTaskQueue } from './history-scan';

const keyring = parseKeyList(testCodecKeys('export-proof'));
const dataConverter = createDataConverter(keyring);
const codec = new AesGcmPayloadCodec(keyring);

const suffix = Math.random().toString(36).slice(2, 8);
const holder = distinctiveB2bHolder(suffix);

beforeAll(workflowBundle, 120_000);

describe('payload encryption of a full onboarding', () => {
  it('keeps personal and card data out of the exported histories, and the codec gives it back', async () => {
    const { client, rawClient, nativeConnection, world, close } = await openEncryptedProof(dataConverter, 'proof');
    const { sandbox, provider, taskQueue } = world;
    const customerRef = `proof-${suffix}`;
    try {
      const worker = await world.worker(nativeConnection);
      const result = await worker.runUntil(async () => {
        const handle = await client.workflow.start(WorkflowTypes.customerOnboarding, {
          workflowId: onboardingWorkflowId(customerRef),
          taskQueue,
          args: [
            { customerRef, cardTypeId: CARD_TYPES.b2bWithDeposit, holder, initialDeposit: '100', wait: FAST_WAIT },
          ],
          typedSearchAttributes: onboardingStartAttributes(customerRef),
        });
        return (await handle.result()) as OnboardingResult;
      });

      // The card's number and CVV as the provider holds them (never asked for by the onboarding).
      const sensitive = await provider.getCardSensitiveData({ cardNo: result.card.cardNo });
      const cardNumber = decryptSensitive(sensitive.cardNumber!, sandbox.keys.merchant.privateKey);
      const cvv = decryptSensitive(sensitive.cvv!, sandbox.keys.merchant.privateKey);
      const expiry = decryptSensitive(sensitive.expireDate!, sandbox.keys.merchant.privateKey);

      // Every workflow of the run: the onboarding and its children, found by task queue.
      const workflowIds = await workflowsOnTaskQueue(rawClient, taskQueue);
      expect(workflowIds.length).toBeGreaterThanOrEqual(3);

      const personal = [...personalValues(holder), holder.postCode];
      let decodedText = '';
      for (const workflowId of workflowIds) {
        const bytes = await exportHistoryBytes(rawClient, workflowId);
        const raw = bytes.toString('latin1');
        for (const value of [...personal, cardNumber])
          expect({ workflowId, leaked: raw.includes(value) ? value : null }).toEqual({ workflowId, leaked: null });
        expect({ workflowId, cvvInRaw: holdsCvv(raw, cvv, expiry) }).toEqual({ workflowId, cvvInRaw: false });
        const decoded = await decodedHistoryText(bytes, codec);
        expect(decoded.encrypted).toBe(decoded.total);
        decodedText += decoded.text;
      }
      for (const value of personal) expect(decodedText).toContain(value);
      // No workflow asks for card details: not even a decoded payload holds them.
      expect(decodedText).not.toContain(cardNumber);
      expect(holdsCvv(decodedText, cvv, expiry)).toBe(false);
    } finally {
      await close();
    }
  }, 120_000);
});
