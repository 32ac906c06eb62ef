/**
 * The top bar's view of a running sale (decision 031). Browser-safe and dependency-free: the
 * TopBar component imports it, so nothing here may pull in zod or the database.
 */

/** What the top bar needs for the sale running now. */
export interface SaleBanner {
  /** The banner text, e.g. "Flash sale: 20% OFF". */
  text: string;
  percent: number;
  /** Epoch ms the countdown runs to; the banner hides once it has passed. */
  endsAt: number;
  /** 'all', or the service slugs the sale covers (the banner shows only on their pages and home). */
  services: 'all' | string[];
  /**
   * For a sale on some services: the slugs whose service page shows the banner: every service
   * (and the group slug) of a group with a covered service, since the service page offers the
   * whole group (decision 038). Absent: the covered services' own pages only.
   */
  servicePages?: string[];
  /** The store's clock when this was read (epoch ms): the countdown's first render starts here. */
  at: number;
}

/**
 * Whether the banner belongs on a page: everywhere (the layout's showsTopBar rules decide the
 * rest) for a sale on all services; for a sale on some services, on the home page (which prices
 * them), on the service pages of their groups (`servicePages`: a group's page offers all its
 * services, decision 038) and on the covered services' own order pages.
 */
export function saleBannerShowsOn(banner: SaleBanner, pathname: string): boolean {
  if (banner.services === 'all') return true;
  if (pathname === '/' || pathname === '') return true;
  const servicePage = /^\/service\/([^/?#]+)/.exec(pathname)?.[1];
  if (servicePage !== undefined) {
    return (banner.servicePages ?? banner.services).includes(decodeURIComponent(servicePage));
  }
  const orderPage = /^\/order\/([^/?#]+?)GOI\d+/.exec(pathname)?.[1];
  return orderPage !== undefined && banner.services.includes(decodeURIComponent(orderPage));
}
