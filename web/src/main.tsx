import { render } from 'preact';
import { App } from './app.js';
import { interceptLinks } from './router.js';

document.addEventListener('click', interceptLinks);

render(<App />, document.getElementById('app')!);
