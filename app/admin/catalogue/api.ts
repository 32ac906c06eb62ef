/**
 * The catalogue editor's calls (decision 044), through the admin client (bearer token,
 * 401 → log-in). Owner-only on the server; the admin navigation shows the page to owners alone.
 */
import type { AdminGroupRow, ImportedService, PanelSummary } from '../../../core/catalogue/editor.ts';
import type {
  GroupInput,
  NewGroupInput,
  ServiceDocument,
  ServiceInput,
  TierWarning,
} from '../../../core/catalogue/service-document.ts';
import { adminApi } from '../token.ts';

export type { AdminGroupRow, ImportedService, PanelSummary, ServiceDocument, ServiceInput, TierWarning };

export interface SaveReply {
  message: string;
  data: ServiceDocument;
  warnings: TierWarning[];
}

export function listCatalogue(signal?: AbortSignal): Promise<AdminGroupRow[]> {
  return adminApi.get<AdminGroupRow[]>('/api/admin/catalogue', { signal });
}

export function fetchService(slug: string, signal?: AbortSignal): Promise<ServiceDocument> {
  return adminApi.get<ServiceDocument>(`/api/admin/catalogue/services/${encodeURIComponent(slug)}`, { signal });
}

export function saveService(slug: string, revision: number, service: ServiceInput): Promise<SaveReply> {
  return adminApi.send<SaveReply, ServiceInput & { revision: number }>(
    'PATCH',
    `/api/admin/catalogue/services/${encodeURIComponent(slug)}`,
    { body: { ...service, revision } },
  );
}

export function createService(groupSlug: string, service: ServiceInput): Promise<SaveReply> {
  return adminApi.send<SaveReply, ServiceInput>(
    'POST',
    `/api/admin/catalogue/groups/${encodeURIComponent(groupSlug)}/services`,
    { body: service },
  );
}

export function saveGroup(slug: string, group: GroupInput): Promise<{ message: string }> {
  return adminApi.send<{ message: string }, GroupInput>(
    'PATCH',
    `/api/admin/catalogue/groups/${encodeURIComponent(slug)}`,
    {
      body: group,
    },
  );
}

export function createGroup(group: NewGroupInput): Promise<{ message: string }> {
  return adminApi.send<{ message: string }, NewGroupInput>('POST', '/api/admin/catalogue/groups', { body: group });
}

export function moveGroup(slug: string, direction: 'up' | 'down'): Promise<{ message: string }> {
  return adminApi.send<{ message: string }, { direction: 'up' | 'down' }>(
    'POST',
    `/api/admin/catalogue/groups/${encodeURIComponent(slug)}/move`,
    { body: { direction } },
  );
}

/** Refused (409, with the reason) while the group has any service, drafts included. */
export function deleteGroup(slug: string): Promise<{ message: string }> {
  return adminApi.send<{ message: string }>('DELETE', `/api/admin/catalogue/groups/${encodeURIComponent(slug)}`);
}

export function moveService(slug: string, direction: 'up' | 'down'): Promise<{ message: string }> {
  return adminApi.send<{ message: string }, { direction: 'up' | 'down' }>(
    'POST',
    `/api/admin/catalogue/services/${encodeURIComponent(slug)}/move`,
    { body: { direction } },
  );
}

export function listPanels(signal?: AbortSignal): Promise<PanelSummary[]> {
  return adminApi.get<PanelSummary[]>('/api/admin/catalogue/panels', { signal });
}

export function listImportedServices(panelId: number, signal?: AbortSignal): Promise<ImportedService[]> {
  return adminApi.get<ImportedService[]>(`/api/admin/catalogue/panels/${panelId}/services`, { signal });
}

/** Stores an image through the upload pipeline (checked by its bytes); answers its `/uploads/…` URL. */
export async function uploadImage(file: File): Promise<string> {
  const form = new FormData();
  form.set('image', file, file.name);
  const reply = await adminApi.send<{ message: string; data: { url: string } }, FormData>('POST', '/api/uploads', {
    body: form,
  });
  return reply.data.url;
}
