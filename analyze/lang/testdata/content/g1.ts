<message>
<source>x</source>
<translation>y</translation>
</message>
