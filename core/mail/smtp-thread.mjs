/**
 * The SMTP conversation, on a thread of its own (started by createSmtpMailer in ./mailer.ts).
 * A message takes several round trips to the mail server; on the store's main thread each one
 * waited for its turn behind every HTTP request, so under checkout load a receipt took seconds
 * and the job worker fell behind. Here the round trips run on this thread's own event loop; the
 * main thread only hands the message over and hears back once.
 *
 * Plain JavaScript: a worker thread is a separate module load, and Node runs .mjs as it is under
 * every entry point (`node --import tsx`, Vitest, scripts).
 */
import { parentPort, workerData } from 'node:worker_threads';
import nodemailer from 'nodemailer';

if (!parentPort) throw new Error('smtp-thread.mjs runs as a worker thread');
const port = parentPort;
const transport = nodemailer.createTransport(workerData.options);
transport.on('error', (err) => port.postMessage({ type: 'transport-error', message: String(err?.message ?? err) }));

/** What the main thread needs of a failure: its words, and the codes that say whether to retry. */
function describeFailure(err) {
  const error = err && typeof err === 'object' ? err : { message: String(err) };
  return {
    name: typeof error.name === 'string' ? error.name : 'Error',
    message: typeof error.message === 'string' ? error.message : String(err),
    code: typeof error.code === 'string' ? error.code : undefined,
    responseCode: typeof error.responseCode === 'number' ? error.responseCode : undefined,
    command: typeof error.command === 'string' ? error.command : undefined,
    response: typeof error.response === 'string' ? error.response : undefined,
  };
}

port.on('message', (request) => {
  if (request.type === 'close') {
    transport.close();
    port.close();
    return;
  }
  transport.sendMail(request.mail).then(
    (info) => port.postMessage({ type: 'sent', id: request.id, messageId: info.messageId, response: info.response }),
    (err) => port.postMessage({ type: 'failed', id: request.id, error: describeFailure(err) }),
  );
});
