// The berth command.
import './program.js';
