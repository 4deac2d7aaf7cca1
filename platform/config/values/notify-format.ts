/**
 * How notifications are signed (CARDFLOW_NOTIFY_FORMAT; platform/notifications/signature.ts signs
 * and verifies each): cardflow's own `Cardflow-Signature`, or the Standard Webhooks headers.
 */
export const NOTIFICATION_FORMATS = ['cardflow', 'standard-webhooks'] as const;
export type NotificationFormat = (typeof NOTIFICATION_FORMATS)[number];
