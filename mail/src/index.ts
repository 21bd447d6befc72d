/** mail: racing by e-mail, the gateway between a race's seats and their mailboxes (docs/mail.md). */
export { MailGateway, automatic, mailConfigFromEnv, type MailConfig, type Received } from './gateway.js';
export { neverAnswered } from './strangers.js';
