import { mount } from 'svelte';
import App from './App.svelte';
import { claimShellToken } from './lib/api.js';
import './styles/theme.css';

// First of all: the browser shell's token leaves the address bar for this page's memory.
claimShellToken();

const target = document.getElementById('app');
if (!target) throw new Error('index.html has no #app element');
mount(App, { target });
