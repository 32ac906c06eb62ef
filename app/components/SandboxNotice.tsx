/**
 * The test-mode strip (decision 014): while payments go through the sandbox (no Razorpay keys),
 * every page says so, so no buyer mistakes a simulated payment for a real one and no operator
 * forgets that the store takes no money. The admin's version says how to switch it off.
 */
export function SandboxNotice({ forOperator }: { forOperator: boolean }) {
  return (
    <section
      aria-label="Test mode"
      data-testid="sandbox-notice"
      className="border-b border-amber-300 bg-amber-100 text-amber-950"
    >
      <p className="mx-auto max-w-7xl px-4 py-1.5 text-center text-sm">
        <strong className="font-semibold">Test mode: payments are simulated.</strong>{' '}
        {forOperator
          ? 'No money is taken. Set RAZORPAY_KEY_ID and RAZORPAY_KEY_SECRET to take real payments.'
          : 'No card is charged.'}
      </p>
    </section>
  );
}
