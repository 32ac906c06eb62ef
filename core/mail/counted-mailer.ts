import type { MetricsRecorder } from '../metrics/recorder.ts';
import type { Mailer } from './mailer.ts';

/**
 * The mailer, counting each delivery attempt. Counted here rather than in the send job so a mail
 * sent from anywhere (the failed-mail alert included) shows in the same figure.
 */
export function countedMailer(mailer: Mailer, metrics: Pick<MetricsRecorder, 'recordMail'>): Mailer {
  return {
    async send(mail) {
      try {
        const sent = await mailer.send(mail);
        metrics.recordMail('sent');
        return sent;
      } catch (error) {
        metrics.recordMail('failed');
        throw error;
      }
    },
    close: () => mailer.close(),
  };
}
