import { render } from 'preact';
import { App } from './app';
import { keepFocusOnBusyControls } from './ui/busy-control-focus';
import './styles.css';

keepFocusOnBusyControls();
render(<App />, document.getElementById('app')!);
