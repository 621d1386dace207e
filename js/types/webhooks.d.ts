// Types of @parcelgate/js/webhooks (server side: verifying tracking webhooks).
export {
  verifyWebhook, WebhookError, type WebhookErrorCode, type VerifyWebhookOptions,
  type TrackingWebhookEvent, type TrackingWebhookData,
} from '../core.js';
