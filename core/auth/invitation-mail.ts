/**
 * The invitation e-mail (decision 041): the single-use link to set a password. The token travels
 * in the link's fragment (`#token=…`), which browsers never send to a server, so it appears in no
 * request log; like every secret it stays out of the subject and preview line (decision 015).
 */
import { type RenderedMail, renderMail } from '../mail/templates/layout.ts';
import { ROLE_LABELS, type AdminRole } from './roles.ts';

const ACCEPT_INVITATION_PATH = '/accept-invitation';

function invitationUrl(publicUrl: string, token: string): string {
  try {
    const url = new URL(ACCEPT_INVITATION_PATH, publicUrl);
    url.hash = `token=${token}`;
    return url.toString();
  } catch {
    return '#';
  }
}

export function renderAdminInvitation(options: {
  token: string;
  role: AdminRole;
  invitedBy: string;
  hours: number;
  publicUrl: string;
}): RenderedMail {
  const { token, role, invitedBy, hours, publicUrl } = options;
  return renderMail({
    subject: 'You are invited to the Boostly admin area',
    preheader: 'Set your password to join the Boostly admin area.',
    heading: 'Join the Boostly admin area',
    intro: `${invitedBy} invited you to the Boostly admin area as ${ROLE_LABELS[role].toLowerCase()}. Open the link to set your password; your first login then asks for a code we e-mail you.`,
    facts: [
      ['Role', ROLE_LABELS[role]],
      ['Link valid for', `${hours} hours, once`],
    ],
    button: { label: 'Set my password', url: invitationUrl(publicUrl, token) },
    paragraphs: ['If you did not expect this invitation, ignore this e-mail: nothing happens without the link.'],
    footer: 'This e-mail was sent because a store owner invited this address to the Boostly admin area.',
  });
}
