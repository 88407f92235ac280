/* Marks a field secret before a secret is typed into it, so the mask hides it
 * in every later screenshot. */
arguments[0].setAttribute('data-agent-secret', '');
return true;
