// The renderer's entry (browser): one Shell over whichever transport this page has.
import { mount } from 'svelte';
import App from './App.svelte';
import { shellContext } from './lib/context';
import { defaultTransport, forwardDroppedFiles } from './lib/transport';
import { Shell } from './state/shell.svelte';
import './styles.css';

const target = document.getElementById('app');
if (!target) throw new Error('index.html has no #app');
const transport = defaultTransport();
forwardDroppedFiles(transport);
mount(App, { target, context: shellContext(new Shell(transport)) });
