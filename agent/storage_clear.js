/* A task starts with its origin's storage empty (a page may refuse access). */
try { localStorage.clear(); sessionStorage.clear(); } catch (e) {}
return true;
