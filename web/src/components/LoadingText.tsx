/** A polite, announced loading line (the "Loading..." texts of docs/product.md). */
export function LoadingText({ children }: { children: string }) {
  return (
    <p role="status" className="py-8 text-center text-slate-600 dark:text-slate-400">
      {children}
    </p>
  );
}
