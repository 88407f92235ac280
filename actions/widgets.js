/* Widget-library knowledge, in one table: every CSS class name of a component
 * library (antd today) the executor relies on.  ARIA roles come first in each
 * entry; the class names cover widgets whose roles are missing or misleading.
 * A new library's widgets are added here and nowhere else. */
const WIDGETS = {
  /* an element inside one of these opens a popup of options when clicked, so
   * select() clicks it and picks from the popup (antd Select, Cascader and
   * DatePicker; ARIA comboboxes) */
  comboboxRoot: '.ant-select,.ant-cascader,.ant-picker,[role=combobox]',
  /* the entries of an open popup select() may click: antd Select options and
   * Cascader menu items (rendered in portals), ARIA options, tree items and
   * menu items, antd Dropdown menu items */
  popupOption: '.ant-select-item-option,.ant-cascader-menu-item,[role=option],[role=menuitem],' +
    '[role=menuitemradio],[role=treeitem],.ant-dropdown-menu-item',
  /* the menu entries among popupOption: used only when no real option is
   * visible, so a page menu open beside a select never wins */
  menuEntry: '[role=menuitem],[role=menuitemradio],.ant-dropdown-menu-item',
  /* antd marks a disabled option by a "...-disabled" class, not aria-disabled */
  disabledClass: /-disabled\b/,
};
