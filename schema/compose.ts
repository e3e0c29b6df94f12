import { writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { composeSupergraph } from './supergraph.ts';

const target = fileURLToPath(new URL('./supergraph.graphql', import.meta.url));
await writeFile(target, await composeSupergraph());
console.log(`wrote ${target}`);
