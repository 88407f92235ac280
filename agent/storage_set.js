/* Playwright storage_state's localStorage for one origin: [{name, value}]. */
for (const kv of arguments[0]) localStorage.setItem(kv.name, kv.value);
return true;
