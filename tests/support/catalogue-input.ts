/**
 * A new service as the catalogue editor's API takes it (decision 044): a draft TikTok service with
 * one plan and one tier, on the environment panel. The title carries a script, which every save
 * must sanitise away.
 */
export function draftServiceInput(slug: string, name = 'TikTok Shares') {
  return {
    slug,
    name,
    titleHtml: 'Buy <strong>TikTok Shares</strong><script>alert(1)</script>',
    description: 'Shares for a TikTok video.',
    image: '',
    targetKind: 'tiktok_post_url',
    commentRequired: false,
    status: 'draft',
    plans: [
      {
        type: 'Standard',
        title: 'Standard Shares',
        icon: '/images/plans/standard.svg',
        currency: '$',
        options: ['Fast start'],
        tiers: [
          { qty: 100, text: '100 Shares', price: '1.99', discount: 0, supplierPanelId: 1, supplierServiceId: '7001' },
        ],
      },
    ],
  };
}
