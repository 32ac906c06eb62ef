import { describe, expect, it } from 'vitest';
import {
  NEW_SERVICE,
  draftFieldPaths,
  emptyTier,
  inputOf,
  serviceDraftReducer,
} from '../../app/admin/catalogue/service-draft.ts';
import { ServiceInputSchema, type ServiceInput } from '../../core/catalogue/service-document.ts';
import { schemaCheck } from '../../app/components/schema-check.ts';
import { draftServiceInput } from '../support/catalogue-input.ts';

/** The editor's draft reducer (app/admin/catalogue/service-draft.ts): each change the form makes. */

const service = (): ServiceInput => ServiceInputSchema.parse(draftServiceInput('tiktok-shares'));

describe('serviceDraftReducer', () => {
  it('gives a subscription kind its default terms and a username, and a package none', () => {
    const likes = serviceDraftReducer(service(), { type: 'kind', kind: 'automatic_likes' });
    expect(likes).toMatchObject({
      kind: 'automatic_likes',
      targetKind: 'tiktok_username',
      terms: { periodDays: 30, posts: 30, delayMinutes: 0 },
    });
    const edited = serviceDraftReducer(likes, { type: 'terms', change: { periodDays: 14, delayMinutes: 90 } });
    expect(edited.terms).toEqual({ periodDays: 14, posts: 30, delayMinutes: 90 });
    const daily = serviceDraftReducer(edited, { type: 'kind', kind: 'daily_followers' });
    expect(daily.terms).toEqual({ periodDays: 14 });
    expect(schemaCheck(ServiceInputSchema, daily).ok).toBe(true);
    const one = serviceDraftReducer(daily, { type: 'kind', kind: 'package' });
    expect(one.kind).toBe('package');
    expect('terms' in one).toBe(false);
    // Terms change nothing on a package.
    expect(serviceDraftReducer(one, { type: 'terms', change: { periodDays: 7 } })).toBe(one);
  });

  it('sets one field and leaves the rest, without changing the state it was given', () => {
    const before = service();
    const after = serviceDraftReducer(before, { type: 'field', key: 'name', value: 'TikTok Reposts' });
    expect(after.name).toBe('TikTok Reposts');
    expect(after.plans).toBe(before.plans);
    expect(before.name).toBe('TikTok Shares');
  });

  it('changes a plan and a tier in place', () => {
    let draft = serviceDraftReducer(service(), { type: 'plan', plan: 0, change: { title: 'Shares', currency: '€' } });
    draft = serviceDraftReducer(draft, { type: 'tier', plan: 0, tier: 0, change: { price: '2.49', qty: 250 } });
    expect(draft.plans[0]).toMatchObject({ type: 'Standard', title: 'Shares', currency: '€' });
    expect(draft.plans[0]?.tiers[0]).toMatchObject({
      qty: 250,
      price: '2.49',
      text: '100 Shares',
      supplierServiceId: '7001',
    });
  });

  it('adds and removes tiers, never the last one', () => {
    let draft = serviceDraftReducer(service(), { type: 'tierAdded', plan: 0 });
    expect(draft.plans[0]?.tiers).toEqual([service().plans[0]?.tiers[0], emptyTier()]);
    draft = serviceDraftReducer(draft, { type: 'tierRemoved', plan: 0, tier: 0 });
    expect(draft.plans[0]?.tiers).toEqual([emptyTier()]);
    expect(serviceDraftReducer(draft, { type: 'tierRemoved', plan: 0, tier: 0 })).toBe(draft);
  });

  it('adds each plan type once, moves plans both ways, and keeps at least one plan', () => {
    let draft = serviceDraftReducer(service(), { type: 'planAdded', planType: 'Popular' });
    expect(serviceDraftReducer(draft, { type: 'planAdded', planType: 'Popular' })).toBe(draft);
    draft = serviceDraftReducer(draft, { type: 'planAdded', planType: 'Exclusive' });
    expect(draft.plans.map((plan) => plan.type)).toEqual(['Standard', 'Popular', 'Exclusive']);
    draft = serviceDraftReducer(draft, { type: 'planMoved', plan: 2, direction: 'up' });
    expect(draft.plans.map((plan) => plan.type)).toEqual(['Standard', 'Exclusive', 'Popular']);
    draft = serviceDraftReducer(draft, { type: 'planMoved', plan: 0, direction: 'down' });
    expect(draft.plans.map((plan) => plan.type)).toEqual(['Exclusive', 'Standard', 'Popular']);
    // Past either end: nothing moves.
    expect(serviceDraftReducer(draft, { type: 'planMoved', plan: 0, direction: 'up' })).toBe(draft);
    expect(serviceDraftReducer(draft, { type: 'planMoved', plan: 2, direction: 'down' })).toBe(draft);
    draft = serviceDraftReducer(draft, { type: 'planRemoved', plan: 1 });
    draft = serviceDraftReducer(draft, { type: 'planRemoved', plan: 1 });
    expect(draft.plans.map((plan) => plan.type)).toEqual(['Exclusive']);
    expect(serviceDraftReducer(draft, { type: 'planRemoved', plan: 0 })).toBe(draft);
  });

  it("takes the markup tool's prices and a save's stored service", () => {
    const tiers = [{ ...emptyTier(), price: '3.0000' }];
    const priced = serviceDraftReducer(service(), { type: 'tiersPriced', plan: 0, tiers });
    expect(priced.plans[0]?.tiers).toEqual(tiers);
    const stored = { ...service(), name: 'Stored', groupSlug: 'tiktok', revision: 4, publishedAt: null };
    expect(serviceDraftReducer(priced, { type: 'saved', service: inputOf(stored) })).toEqual({
      ...service(),
      name: 'Stored',
    });
  });
});

describe('draftFieldPaths', () => {
  it('names every field the schema can refuse on the page, as the API names them', () => {
    const paths = draftFieldPaths(serviceDraftReducer(service(), { type: 'tierAdded', plan: 0 }));
    expect(paths.slice(0, 12)).toEqual([
      'name',
      'slug',
      'titleHtml',
      'description',
      'image',
      'kind',
      'targetKind',
      'status',
      'terms.periodDays',
      'terms.posts',
      'terms.delayMinutes',
      'plans',
    ]);
    expect(paths).toContain('plans.0.title');
    expect(paths).toContain('plans.0.tiers');
    expect(paths).toContain('plans.0.tiers.1.price');
    expect(paths).toContain('plans.0.tiers.1.supplierServiceId');
    expect(paths).not.toContain('plans.1.title');
  });

  it("covers each message the schema gives a new service's empty draft", () => {
    const check = schemaCheck(ServiceInputSchema, NEW_SERVICE);
    expect(check.ok).toBe(false);
    if (check.ok) return;
    expect(check.errors).toMatchObject({
      slug: 'Slug is required.',
      name: 'Name is required.',
      titleHtml: 'Title is required.',
      'plans.0.tiers.0.text': 'Tier text is required.',
    });
    const paths = draftFieldPaths(NEW_SERVICE);
    for (const field of Object.keys(check.errors)) expect(paths).toContain(field);
  });
});
