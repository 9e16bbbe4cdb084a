// The renderer's entry (browser): one Shell over whichever transport this page has.
import { mount } from 'svelte';
import App from './App.svelte';
import { shellContext } from './lib/context';
import { loadTemporal } from './temporal';
import { defaultTransport, forwardDroppedFiles } from './lib/transport';
import { Shell } from './state/shell.svelte';
import './styles.css';

const target = document.getElementById('app');
if (!target) throw new Error('index.html has no #app');
const transport = defaultTransport();
forwardDroppedFiles(transport);
// Every Temporal use runs once the app is mounted: after the polyfill, where one is needed.
void loadTemporal().then(() => mount(App, { target, context: shellContext(new Shell(transport)) }));
