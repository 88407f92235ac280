// A download step whose target is a URL (actions/files.c): a same-origin link
// with the download attribute, clicked and removed, so the browser saves what
// the server sends without leaving the page.  arguments: [url].
const a = document.createElement('a');
a.href = arguments[0];
a.download = '';
a.style.display = 'none';
document.body.appendChild(a);
a.click();
a.remove();
return {url: location.href};
