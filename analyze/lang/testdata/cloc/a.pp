# a puppet comment
class foo {
  package { "x": ensure => present }
}
/* c */
