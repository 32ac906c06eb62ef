/**
 * `npm run check:imports`: reads every import of the tracked .ts/.tsx files in app/, core/, db/,
 * server/, scripts/ and tests/ and fails on a wrong-way import, an import cycle or a browser module that
 * reaches the database, the server or Node (scripts/support/import-graph.ts has the rules).
 * Prints each finding, then one summary line with the three counts.
 */
import path from 'node:path';
import { buildImportGraph, checkImportGraph, formatImportReport, sourceFiles } from './support/import-graph.ts';

const root = path.resolve(import.meta.dirname, '..');
const graph = buildImportGraph(root, sourceFiles(root));
const report = checkImportGraph(graph);
for (const line of formatImportReport(report, graph)) console.log(line);
const found = report.wrongWay.length + report.cycles.length + report.clientGraph.length;
process.exit(found === 0 ? 0 : 1);
