import { createContext, useContext } from 'react';
import { Scripts } from 'react-router';

/** Set per response by entry.server.tsx; in the browser the document is always a hydrated one. */
interface DocumentScriptsValue {
  /** The CSP nonce of this response (the browser hides it from scripts, hence empty there). */
  nonce: string;
  /** Null: the framework's scripts. Text: a page without framework JavaScript (app/page-handle.ts) and its one plain script. */
  plainScript: string | null;
}

const DocumentScriptsContext = createContext<DocumentScriptsValue>({ nonce: '', plainScript: null });

export const DocumentScriptsProvider = DocumentScriptsContext.Provider;

/**
 * The end of every document's body: React Router's scripts and module preloads, or, on a page that
 * opted out of the framework, only its plain script. Decided on the server, where the matched
 * routes' handles are known; a document the browser renders is always a hydrated one, so the
 * browser's build keeps only the framework's scripts (Vite sets `import.meta.env.SSR` per build).
 */
function ServerDocumentScripts() {
  const { nonce, plainScript } = useContext(DocumentScriptsContext);
  return plainScript === null ? (
    <Scripts nonce={nonce} />
  ) : (
    <script nonce={nonce} dangerouslySetInnerHTML={{ __html: plainScript }} />
  );
}

/** In the browser the nonce is hidden from scripts anyway, and hydration keeps the server's attribute. */
function BrowserDocumentScripts() {
  return <Scripts />;
}

export const DocumentScripts = import.meta.env.SSR ? ServerDocumentScripts : BrowserDocumentScripts;
