// Placeholder: the preload is built with the Electron shell.
export {};
