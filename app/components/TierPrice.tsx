import { formatHomePrice } from '../../core/catalogue/pricing.ts';

/**
 * A tier's price as "$x.xx"; during a sale (decision 031) the list price before it, struck
 * through, then the sale price that is charged.
 */
export function TierPrice({ price, listPrice }: { price: number; listPrice?: number | undefined }) {
  if (listPrice === undefined || listPrice <= price) return <>{formatHomePrice(price)}</>;
  return (
    <>
      <del data-testid="list-price" className="mr-1.5 font-normal text-gray-600">
        <span className="sr-only">Was </span>
        {formatHomePrice(listPrice)}
      </del>
      <ins data-testid="sale-price" className="no-underline">
        <span className="sr-only">now </span>
        {formatHomePrice(price)}
      </ins>
    </>
  );
}
