/**
 * "The inbox changed" within this tab: a message was opened (and so read), handled or answered.
 * The admin navigation listens and asks for the unread count again, so its badge follows what
 * the admin just did, however the page was reached (a link, a reload, back/forward).
 */
type Listener = () => void;
const listeners = new Set<Listener>();

export function notifyInboxChanged(): void {
  for (const listener of listeners) listener();
}

export function subscribeInboxChanged(listener: Listener): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}
