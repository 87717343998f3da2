a:
  pkg.installed
{% if x %}
