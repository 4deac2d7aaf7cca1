/**
 * Proof that payloads never sit in clear in Temporal, for the values the B2B onboarding proof
 * cannot reach: a B2C onboarding (ID number), a physical card activation (PIN, activation code),
 * and the real card number and CVV of both cards as the provider holds them. With the shared data
 * converter the exported histories hold no personal value in clear and the codec gives them back;
 * the clear PIN, the activation code, the card numbers and the CVVs are in no history at all, not
 * even decoded (the PIN travels sealed, the code is opened inside the activity, and no workflow
 * asks for card details: spec "Card sensitive data").
 */
import type { ProviderClient } from '../../../../provider/client';
import { decryptSensitive } from '../../../../provider/sensitive';
import { sealPin } from '../../../../activities/secrets';
import { createDataConverter } from '../../../../platform/codec/data-converter';
import { parseKeyList } from '../../../../platform/codec/keys';
import { testCodecKeys } from '../../support/temporal-env';
import { AesGcmPayloadCodec } from '../../../../platform/codec/payload-codec';
import type { B2cCardholder } from '../../../../domain/cardholder-data';
import type { OnboardingResult } from '../../../../domain/customer-onboarding';
import { type PhysicalCardActivationResult } from '../../../../domain/physical-card-activation';
import { onboardingStartAttributes } from '../../../../domain/start-attributes';
import { cardholderWorkflowId, onboardingWorkflowId, activationWorkflowId } from '../../../../domain/workflow-ids';
import { WorkflowTypes } from '../../../../domain/workflows';
import type { RunningSandbox } from '../../../../tools/sandbox';
import { b2cHolder } from '../../../fixtures/holders';
import { eventually, physicalCard, uploadIdImages } from '../../support/card-harness';
import { FAST_WAIT, workflowBundle } from '../../support/harness';
import { openEncryptedProof, personalValues, sixDigits } from './encrypted-world';
import { decodedHistoryText, exportHistoryBytes, foundIn, holdsCvv, workflowsOnTaskQueue } from './history-scan';
import { CARD_TYPE_IDS } from '../../../../tools/sandbox/data/card-types';
import { plainJson } from '../../../../provider/json';

const keyring = parseKeyList(testCodecKeys('b2c-proof'));
const dataConverter = createDataConverter(keyring);
const codec = new AesGcmPayloadCodec(keyring);

/**
 * Visa Platinum Virtual (B2C), tools/sandbox/data/cardTypes.ts: B2C holder, deposit after creation
 * (10–20000).
 */
const B2C_VIRTUAL_TYPE = CARD_TYPE_IDS.b2cVirtual;

const suffix = Math.random().toString(36).slice(2, 8);

/** Distinctive personal values, so a hit in the bytes can only be a leak. */
function distinctiveB2cHolder(fileIds: readonly string[]): B2cCardholder {
  return b2cHolder(
    { email: `ottoline.${suffix}@example.com`, idNumber: `QX${suffix.toUpperCase()}${sixDigits()}`, fileIds },
    {
      mobile: `7731${sixDigits()}`,
      firstName: 'Ottoline',
      lastName: 'Vexmoor',
      birthday: '1979-11-23',
      address: '9 Quillfeather Row',
      postCode: 'ZX9QW',
    },
  );
}

/** The card's number, CVV and expiry as the provider holds them, opened with the merchant key. */
async function cardSecrets(provider: ProviderClient, sandbox: RunningSandbox, cardNo: string) {
  const sensitive = await provider.getCardSensitiveData({ cardNo });
  const open = (value: string | null | undefined) => decryptSensitive(value ?? '', sandbox.keys.merchant.privateKey);
  return { cardNumber: open(sensitive.cardNumber), cvv: open(sensitive.cvv), expiry: open(sensitive.expireDate) };
}

beforeAll(workflowBundle, 120_000);

describe('payload encryption of a B2C onboarding and a physical card activation', () => {
  it('keeps ID number, PIN, activation code, card numbers and CVVs out of the exported histories', async () => {
    const { client, rawClient, nativeConnection, world, close } = await openEncryptedProof(dataConverter, 'proof-b2c');
    const { sandbox, provider, taskQueue } = world;
    const customerRef = `proof-b2c-${suffix}`;
    try {
      const fileIds = await uploadIdImages(provider);
      const holder = distinctiveB2cHolder(fileIds);
      const physical = await physicalCard(provider);
      const pin = `9${sixDigits().slice(1)}`;
      const sealedPin = sealPin(pin, sandbox.keys.merchant.publicKey);
      const activationId = activationWorkflowId(physical.cardNo);

      const worker = await world.worker(nativeConnection, { withMerchantKey: true });
      const { onboarding, activation, activationCode } = await worker.runUntil(async () => {
        const onboardingHandle = await client.workflow.start(WorkflowTypes.customerOnboarding, {
          workflowId: onboardingWorkflowId(customerRef),
          taskQueue,
          args: [{ customerRef, cardTypeId: B2C_VIRTUAL_TYPE, holder, initialDeposit: '20', wait: FAST_WAIT }],
          typedSearchAttributes: onboardingStartAttributes(customerRef),
        });
        const activationHandle = await client.workflow.start(WorkflowTypes.physicalCardActivation, {
          workflowId: activationId,
          taskQueue,
          args: [{ cardNo: physical.cardNo, route: 'activation_code', sealedPin, wait: FAST_WAIT }],
        });
        await eventually(
          () => activationHandle.query<{ stage: string }>('activationStatus'),
          (s) => s.stage === 'awaiting_code',
          'awaiting_code',
        );
        const issue = sandbox.engine.helpers.issueActivationCode!;
        const issued = plainJson(await issue({ cardNo: physical.cardNo })) as { activationCode: string };
        return {
          onboarding: (await onboardingHandle.result()) as OnboardingResult,
          activation: (await activationHandle.result()) as PhysicalCardActivationResult,
          activationCode: issued.activationCode,
        };
      });
      expect(onboarding.cardholder?.created).toBe(true);
      expect(activation.cardStatus).toBe('Normal');

      const cards = [
        await cardSecrets(provider, sandbox, onboarding.card.cardNo),
        await cardSecrets(provider, sandbox, physical.cardNo),
      ];

      // Every workflow of the run, found by task queue, plus the ones this test knows by id.
      const workflowIds = new Set([
        onboardingWorkflowId(customerRef),
        cardholderWorkflowId(customerRef),
        activationId,
        ...(await workflowsOnTaskQueue(rawClient, taskQueue)),
      ]);
      expect(workflowIds.size).toBeGreaterThanOrEqual(4);

      const personal = [...personalValues(holder), holder.idNumber];
      const neverInHistory = [pin, activationCode, ...cards.map((c) => c.cardNumber)];
      let rawText = '';
      let decodedText = '';
      for (const workflowId of workflowIds) {
        const bytes = await exportHistoryBytes(rawClient, workflowId);
        const raw = bytes.toString('latin1');
        expect({ workflowId, leaked: foundIn(raw, [...personal, sealedPin, ...neverInHistory]) }).toEqual({
          workflowId,
          leaked: [],
        });
        for (const card of cards)
          expect({ workflowId, cvvInRaw: holdsCvv(raw, card.cvv, card.expiry) }).toEqual({
            workflowId,
            cvvInRaw: false,
          });
        const decoded = await decodedHistoryText(bytes, codec);
        expect(decoded.encrypted).toBe(decoded.total);
        rawText += raw;
        decodedText += decoded.text;
      }

      // Decoding gives the personal values and the sealed PIN back: the scan finds what is there.
      expect(foundIn(decodedText, [...personal, sealedPin])).toEqual([...personal, sealedPin]);
      // The raw scan sees what is stored in clear (references, not personal data).
      expect(rawText).toContain(customerRef);
      expect(rawText).toContain(physical.cardNo);
      // What no workflow ever carries is absent even after decoding (and the matcher would see it).
      expect(foundIn(JSON.stringify({ pin, activationCode, cards }), neverInHistory)).toEqual(neverInHistory);
      expect(foundIn(decodedText, neverInHistory)).toEqual([]);
      for (const card of cards) {
        expect(holdsCvv(`{"cvv":"${card.cvv}","expireDate":"${card.expiry}"}`, card.cvv, card.expiry)).toBe(true); // the matcher can fire
        expect(holdsCvv(decodedText, card.cvv, card.expiry)).toBe(false);
      }
    } finally {
      await close();
    }
  }, 120_000);
});
