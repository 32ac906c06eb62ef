/**
 * The store's `Link` and `NavLink`, for every link of every page: in the browser, React Router's
 * own. The server build takes app/components/Link.server.tsx in its place (`serverLinks` in
 * vite.config.ts), which renders the same anchors for less (decisions 078 and 079). A re-export,
 * so that in the browser each page imports the router's links from the framework chunk as before,
 * at no extra byte.
 */
export { Link, NavLink } from 'react-router';
