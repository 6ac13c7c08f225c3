import { writeFileSync } from 'node:fs';
import { VirtualPhone } from './src/testbed/sim/phone.js';
const p = new VirtualPhone({ seed: 3 });
await p.launch('com.example.recordings');
await p.clock.sleep(400);
const tree = await p.readTree();
for (const n of tree.nodes) if (n.text || n.contentDesc || n.resourceId) console.log(n.className, JSON.stringify(n.text), n.contentDesc, n.resourceId, JSON.stringify(n.bounds));
writeFileSync('/tmp/rec.png', (await p.screenshot()).png);
console.log(p.world.recordings);
