import type { B2bCardholder } from '../../../domain/cardholder-data';

/** A B2B holder the sandbox approves; `email` picks the review outcome (sandbox/engine/magic.ts). */
export function b2bHolder(email: string): B2bCardholder {
  return {
    shape: 'B2B',
    areaCode: '+1',
    mobile: `555${Math.floor(Math.random() * 1e7).toString().padStart(7, '0')}`,
    email,
    firstName: 'Ada',
    lastName: 'Lovelace',
    birthday: '1990-01-31',
    country: 'US',
    town: 'US0101',
    address: '1 Main Street',
    postCode: '10001',
  };
}

export function uniqueEmail(local: string): string {
  return `${local}+${Math.random().toString(36).slice(2, 10)}@example.com`;
}
