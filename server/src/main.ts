/**
 * `npm start`: the race server on http://localhost:8080, with its SQLite database under ./data,
 * or PostgreSQL when DATABASE_URL is set. PORT, HOST and DATA_DIR change the rest. With MAIL_FROM
 * and MAIL_RELAY_URL set, races are also run by e-mail (docs/mail.md).
 */
import { join } from 'node:path';
import { shippedCourses } from './courses.js';
import { buildApp } from './app.js';
import { migrate, openDb } from './db.js';
import { systemClock } from './deadline.js';
import { RaceService } from './races.js';
import { postgresFanout } from './fanout.js';
import { MailGateway, mailConfigFromEnv } from '../../mail/src/gateway.js';

async function main(): Promise<void> {
  const port = Number(process.env.PORT ?? 8080);
  const host = process.env.HOST ?? '127.0.0.1';
  const url = process.env.DATABASE_URL;
  const { db, dialect } = openDb(url ? { url } : { file: join(process.env.DATA_DIR ?? 'data', 'roborally.sqlite') });
  await migrate(db);
  const courses = shippedCourses();
  // With PostgreSQL, several processes can serve one database: new entries reach every process's clients.
  let service!: RaceService;
  const fanout = url
    ? await postgresFanout(url, (raceId) => {
        if (service.bus.listenerCount(`race:${raceId}`)) void service.announce(raceId, 0, false);
      })
    : null;
  service = new RaceService({ db, clock: systemClock, course: (n) => courses.get(n), ...(fanout ? { published: fanout.publish } : {}) });
  const app = await buildApp({ service, courses: () => [...courses].map(([name, course]) => ({ name, course })) });
  // Off unless configured: orders in by SMTP or IMAP, the race's mails out through the relay.
  const mailConfig = mailConfigFromEnv(process.env);
  const mail = mailConfig ? new MailGateway({ service, db, clock: systemClock, config: mailConfig }) : null;
  await mail?.start();
  // Deadlines are in the database: whatever fell due while the server was down is played now.
  const tick = async () => {
    try {
      await service.tick();
    } catch (e) {
      console.error('deadline check failed:', (e as Error).message);
    }
  };
  await tick();
  const timer = setInterval(tick, 500);
  await app.listen({ port, host });
  if (mail) console.log(`mail from ${mailConfig!.from}${mailConfig!.smtpListen ? `, SMTP listener on ${mailConfig!.smtpListen}` : ''}${mailConfig!.imapUrl ? ', IMAP mailbox polled' : ''}`);
  console.log(`roborally server on http://${host === '0.0.0.0' ? 'localhost' : host}:${port} (${dialect}${dialect === 'sqlite' ? `, ${join(process.env.DATA_DIR ?? 'data', 'roborally.sqlite')}` : ''}); API at /api/openapi.json`);
  const stop = async () => {
    clearInterval(timer);
    await mail?.stop();
    await app.close();
    await fanout?.close();
    await db.destroy();
    process.exit(0);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
