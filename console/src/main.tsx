// The console's entry: mounts the app (no inline script: index.html loads this file).
import { render } from 'preact';
import { App } from './app';
import './styles.css';

render(<App />, document.getElementById('app')!);
